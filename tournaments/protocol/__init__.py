"""The final protocol of an event: one document (``document``), read by ``selectors``, drawn as
a page (``web.protocol``), a PDF (``pdf``) and a spreadsheet (``xlsx``)."""
