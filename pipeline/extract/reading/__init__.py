"""A page as pdfium draws it: glyphs with their fonts, rules, shaded boxes, images and clips, in the displayed frame."""
