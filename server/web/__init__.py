"""The web server for one table: the pages, ``/healthz``, the Socket.IO events and the transport
that carries the table's messages (:mod:`.transport`), and ``longhall serve`` (:mod:`.serve`)."""
