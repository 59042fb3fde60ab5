"""One page arranged: glyphs into words and lines, text columns, margins, minipages, pages set sideways."""
