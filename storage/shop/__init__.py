"""The network's gift shop: the catalogue of gifts (``gifts.py``: name, price, stock, photo,
active or retired, and the admins' dialog drafts) and the players' requests
(``requests.py``), which reserve points and an item until an admin hands the gift over.

A player's reserved points are the sum of its open requests' ``points``; its available
points are its balance (the ledger's sum) less them. A request is no ledger row until it is
handed over: then it writes one 'redeem' row, as ``/redeem`` does. The writes that check a
balance, a reservation or a stock lock, in this order, the player's row, the gift's row and
the request's row (docs/storage.md, "Writes and how they are serialized").

May import: ``storage.repos`` (the statements it shares with the ledger, the outbox),
``storage.sql`` and the value modules (``storage.models``, ``storage.errors``).
"""
