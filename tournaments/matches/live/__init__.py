"""Recording a match at the table: a draft of entries checked by the engine as they come, the
phone page that enters them, and the live view that spectators follow. The pure logic is
``recording``; ``services`` writes (over ``drafts``, ``clocks`` and ``hints``), ``state`` is what
every reader shares, ``api`` and ``views`` are the edges. An app of its own
(label ``live``, its table and migrations as they were when it lived in ``games/live``)."""
