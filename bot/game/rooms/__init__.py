"""The evening's rooms, one per part of it: the lobby's life (:mod:`.lobby`: opened, closed
undealt), its seats (:mod:`.seats`), the consent asks of the Telegram players a host seats
(:mod:`.consent`) and its friend orders (:mod:`.friends`), tonight's guests (:mod:`.guests`), the
deal (:mod:`.deal`), the night (:mod:`.night`), the day (:mod:`.day`), the results
(:mod:`.results`), the host's controls (:mod:`.host`) and the host's whistle (:mod:`.fouls`, its
offers of the technical death: :mod:`.offers`). Each is a class ``<Part>Room`` given in its
constructor the parts it uses (the tables, the steps, the timekeeper, the notifier...) and the
rooms it calls, by their public methods only; no room holds the state of another. Two parts
the lobby's rooms share are given the same way: the lobby's post (:mod:`.lobby_post`,
``LobbyPost``: posted, drawn again, closed) and its seating (:mod:`.seating`,
``LobbySeating``: a seat taken, the new order saved). Who calls whom (a room is built after those):

* the seating -> the lobby's post (a seat the host plays is shown);
* the consent asks -> the seating (a "Yes" is seated), the lobby's post;
* the seats -> the consent asks (``/addseat`` of a Telegram player asks, ``/unseat`` withdraws
  the ask), the seating, the lobby's post; the seats ask tonight's list whether a seat is held
  (``hold``, a function they are given: :meth:`.guests.GuestList.hold`);
* the lobby -> the lobby's post, the consent asks (a close ends them);
* the guests -> the seats (a check-in is a join);
* the deal -> the consent asks (the deal ends them), the friends; it reads the open immunities
  as the lobby's post shows them (``lobby_post.marks_of``, a function);
* the night, the day -> the results (a resolution is announced there);
* the host -> the results, the night, the day (``/tech`` resolves what it interrupts);
* the fouls -> the host (an accepted offer is ``/tech``).

May import: ``bot.game.steps``, ``bot.game.timekeeper``, ``bot.game.prompts`` and what those
may import.
"""
