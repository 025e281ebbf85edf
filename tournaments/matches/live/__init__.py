"""Recording a match at the table: a draft of entries checked by the engine as they come, the
phone page that enters them, and the live view that spectators follow (DESIGN.md: the pure logic
is ``recording``; ``services`` writes, ``api`` and ``views`` are the edges)."""
