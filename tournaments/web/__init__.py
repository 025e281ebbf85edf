"""The core's pages (``public`` reads, ``organize`` and ``results`` write through the services),
their forms, the helpers every package's pages share (``common``), and the site's URL conf
(``urls``), which routes to each package's own views too."""
