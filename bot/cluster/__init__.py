"""Several processes on one PostgreSQL sharing the clubs: membership, the roles and each
club's holder (:mod:`bot.cluster.sharing` over the locks of :mod:`bot.cluster.share`), every
update routed to its club's holder (:mod:`bot.cluster.routing`) and handled once through the
inbox (:mod:`bot.cluster.receiving`, :mod:`bot.cluster.handled_marks`), the outbox's sender
told of the rows queued elsewhere (:mod:`bot.cluster.outbox_notices`), calls only a holder
can answer (:mod:`bot.cluster.club_calls`), and the run of such a process
(:mod:`bot.cluster.shared_run`, :mod:`bot.cluster.standby`). Start with ``sharing.py``;
docs/scaling.md describes it.

May import: ``bot.game``, ``bot.telegram``, ``bot.services``, ``bot.delivery``, the base
modules of ``bot`` and the layers below ``bot``.
"""
