"""A tournament's bracket drawn: ``layout`` is the pure geometry of boxes and lines, ``view``
what each box shows of its match."""
