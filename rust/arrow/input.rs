//! The text column of a record batch, read in place: Arrow strings are UTF-8, so each row is
//! a `&str` into the batch's own buffers (no copy, no Python object).

use arrow_array::cast::AsArray;
use arrow_array::{Array, LargeStringArray, RecordBatch, StringArray, StringViewArray};
use arrow_schema::DataType;

use super::column_type_error;
use crate::error::{Error, Result};

/// A string column of any of Arrow's three layouts.
pub enum Texts<'a> {
    /// `string` (32-bit offsets).
    Utf8(&'a StringArray),
    /// `large_string` (64-bit offsets).
    Large(&'a LargeStringArray),
    /// `string_view` (what polars and `DuckDB` hand out).
    View(&'a StringViewArray),
}

impl<'a> Texts<'a> {
    /// The column called `name` of `batch`; a missing column is an error naming those that
    /// exist, a column of another type an error naming its type.
    pub fn column(batch: &'a RecordBatch, name: &str) -> Result<Self> {
        let Some(array) = batch.column_by_name(name) else {
            let available: Vec<String> = batch
                .schema()
                .fields()
                .iter()
                .map(|f| format!("{:?}", f.name()))
                .collect();
            return Err(Error::MissingColumn {
                name: name.to_owned(),
                available: available.join(", "),
            });
        };
        Self::of(array.as_ref(), name)
    }

    /// `array` as a string column (`name` is for the error message).
    pub fn of(array: &'a dyn Array, name: &str) -> Result<Self> {
        Ok(match array.data_type() {
            DataType::Utf8 => Self::Utf8(array.as_string::<i32>()),
            DataType::LargeUtf8 => Self::Large(array.as_string::<i64>()),
            DataType::Utf8View => Self::View(array.as_string_view()),
            other => return Err(column_type_error(name, &other.to_string())),
        })
    }

    /// Rows in the column.
    pub fn len(&self) -> usize {
        match self {
            Self::Utf8(a) => a.len(),
            Self::Large(a) => a.len(),
            Self::View(a) => a.len(),
        }
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i`'s text, `None` when null.
    pub fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            Self::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Self::Large(a) => a.is_valid(i).then(|| a.value(i)),
            Self::View(a) => a.is_valid(i).then(|| a.value(i)),
        }
    }

    /// The text bytes of every row (nulls count 0), to share work out evenly.
    pub fn total_bytes(&self) -> usize {
        (0..self.len()).map(|i| self.byte_len(i)).sum()
    }

    /// Row `i`'s length in bytes (0 when null), to share work out evenly.
    pub fn byte_len(&self, i: usize) -> usize {
        self.get(i).map_or(0, str::len)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Int64Array};

    use super::*;

    fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
        RecordBatch::try_from_iter(columns).unwrap()
    }

    #[test]
    fn reads_every_string_layout_with_nulls() {
        let rows = [Some("a"), None, Some("héllo"), Some("")];
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from(rows.to_vec())),
            Arc::new(LargeStringArray::from(rows.to_vec())),
            Arc::new(StringViewArray::from(rows.to_vec())),
        ];
        for array in arrays {
            let b = batch(vec![("text", array)]);
            let texts = Texts::column(&b, "text").unwrap();
            let got: Vec<_> = (0..texts.len()).map(|i| texts.get(i)).collect();
            assert_eq!(got, rows);
            assert_eq!(texts.byte_len(2), 6);
        }
    }

    #[test]
    fn names_the_columns_that_exist_and_the_wrong_type() {
        let b = batch(vec![(
            "body",
            Arc::new(Int64Array::from(vec![1])) as ArrayRef,
        )]);
        let missing = Texts::column(&b, "text").err().unwrap().to_string();
        assert!(missing.contains("\"body\""), "{missing}");
        let wrong = Texts::column(&b, "body").err().unwrap();
        assert!(matches!(wrong, Error::ColumnType { .. }), "{wrong}");
    }
}
