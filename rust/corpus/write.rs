//! JSON Lines written to the output file by the pool threads themselves, in input order.
//!
//! Copying 300 MB of rows into the page cache is kernel work of about 0.2–0.3 s here; done
//! by the thread that hands results to Python, it made that thread the longest at 2 threads.
//! Instead each task gives its rows to [`OrderedFile::put`] when it finishes: rows whose
//! turn has not come are parked, and the thread whose rows complete the next stretch writes
//! that stretch (and whatever was parked behind it) while the other threads go on working.
//! One thread writes at a time, so the file is written front to back with plain writes.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// An output file fed in input order by many threads (see the module comment).
#[derive(Debug)]
pub struct OrderedFile {
    file: File,
    order: Mutex<Order>,
    /// Signalled when a writer is done (for [`OrderedFile::finish`]).
    idle: Condvar,
}

#[derive(Debug, Default)]
struct Order {
    /// The output whose rows are written next.
    next: usize,
    /// Rows of outputs whose turn has not come, and whether each output has given all of
    /// its parts (a task gives one; a streamed file one per step).
    parked: BTreeMap<usize, (Vec<Vec<u8>>, bool)>,
    /// A thread is writing: the others park and go.
    writing: bool,
    /// The first write error; later rows are dropped and the job reports it.
    error: Option<io::Error>,
}

impl OrderedFile {
    /// Writes into `file` (from its current position).
    pub fn new(file: File) -> Self {
        Self {
            file,
            order: Mutex::new(Order::default()),
            idle: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Order> {
        // A panic while holding the lock cannot leave `Order` half-changed in a way that
        // matters more than the panic itself, which the job reports.
        self.order.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Part of output `id`'s rows (`last`: its final part; outputs are numbered from 0 in
    /// input order, each given with `last` exactly once). Writes them now if their turn
    /// has come and no other thread is writing; else parks them.
    pub fn put(&self, id: usize, rows: Vec<u8>, last: bool) {
        let mut order = self.lock();
        let part = order.parked.entry(id).or_default();
        part.0.push(rows);
        part.1 |= last;
        if order.writing {
            return; // the writing thread takes these when it gets to them
        }
        order.writing = true;
        loop {
            let due = order.due();
            if due.is_empty() {
                order.writing = false;
                drop(order);
                self.idle.notify_all();
                return;
            }
            drop(order);
            let result = due.iter().try_for_each(|rows| (&self.file).write_all(rows));
            order = self.lock();
            if let Err(err) = result {
                order.error.get_or_insert(err);
            }
        }
    }

    /// Waits until every due row is written; the first write error, if any.
    pub fn finish(&self) -> io::Result<()> {
        let mut order = self.lock();
        while order.writing {
            order = self
                .idle
                .wait(order)
                .unwrap_or_else(PoisonError::into_inner);
        }
        order.error.take().map_or(Ok(()), Err)
    }

    /// The first write error so far, taken (reported once).
    pub fn error(&self) -> Option<io::Error> {
        self.lock().error.take()
    }
}

impl Order {
    /// The parked rows that can be written now, in order (dropped after a write error).
    fn due(&mut self) -> Vec<Vec<u8>> {
        let mut due = Vec::new();
        while let Some(mut entry) = self.parked.first_entry() {
            if *entry.key() != self.next {
                break;
            }
            let (parts, last) = entry.get_mut();
            due.append(parts);
            if !*last {
                break; // a streamed file with more steps to come
            }
            entry.remove();
            self.next += 1;
        }
        if self.error.is_some() {
            due.clear();
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::sync::Arc;

    fn temp(name: &str) -> (std::path::PathBuf, File) {
        let path = std::env::temp_dir().join(format!("ferrochunk-{name}-{}", std::process::id()));
        let file = File::create(&path).unwrap();
        (path, file)
    }

    fn read(path: &std::path::Path) -> Vec<u8> {
        let mut out = Vec::new();
        File::open(path).unwrap().read_to_end(&mut out).unwrap();
        std::fs::remove_file(path).unwrap();
        out
    }

    #[test]
    fn parts_out_of_order_are_written_in_order() {
        let (path, file) = temp("order");
        let out = OrderedFile::new(file);
        out.put(2, b"c".to_vec(), true);
        out.put(1, b"b1".to_vec(), false); // a streamed output, in parts
        out.put(0, b"a".to_vec(), true);
        out.put(1, b"b2".to_vec(), false);
        out.put(3, b"d".to_vec(), true);
        out.put(1, Vec::new(), true);
        out.finish().unwrap();
        assert_eq!(read(&path), b"ab1b2cd");
    }

    #[test]
    fn many_threads_in_any_order() {
        let (path, file) = temp("threads");
        let out = Arc::new(OrderedFile::new(file));
        let want: Vec<u8> = (0..400u32)
            .flat_map(|k| format!("{k},").into_bytes())
            .collect();
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let out = Arc::clone(&out);
                std::thread::spawn(move || {
                    // Each thread gives every fourth output, from the back.
                    for k in (0..400).rev().filter(|k| k % 4 == t) {
                        out.put(k, format!("{k},").into_bytes(), true);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        out.finish().unwrap();
        assert_eq!(read(&path), want);
    }
}
