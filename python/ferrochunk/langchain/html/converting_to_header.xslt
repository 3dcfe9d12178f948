<?xml version="1.0"?>
<!-- HTMLSectionSplitter's font-size rule: any element whose inline style gives a font size
     above 20px becomes an <h1> (keeping its attributes and content); everything else is
     copied unchanged. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="node()|@*">
    <xsl:copy>
      <xsl:apply-templates select="node()|@*"/>
    </xsl:copy>
  </xsl:template>

  <xsl:template match="*[contains(@style, 'font-size')]">
    <xsl:variable name="px" select="substring-before(substring-after(@style, 'font-size:'), 'px')"/>
    <xsl:choose>
      <xsl:when test="$px &gt; 20">
        <h1><xsl:apply-templates select="node()|@*"/></h1>
      </xsl:when>
      <xsl:otherwise>
        <xsl:copy><xsl:apply-templates select="node()|@*"/></xsl:copy>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
