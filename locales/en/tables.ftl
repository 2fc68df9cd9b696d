# Several tables in one club chat (bot/game/rooms/lobby.py, bot/game/core.py): each table has its
# own host; in a forum each plays in its own topic, otherwise its posts start with its name.

tables-label = <b>Table { $number }</b>
tables-topic = Table { $number }
tables-another = ➕ Another table
tables-opened = Table { $number } is open: game #{ $game }. You are its host.
tables-which = Tables { $numbers } are open in this chat. Name one by its number: /status { $example }. A table's commands come from its host.
tables-host-seated = You sit at a table: Table { $number }, game #{ $game }. A player does not host another table.
tables-join-other = You already sit at another table: Table { $number }, game #{ $game }.
tables-join-hosting = You host another table: Table { $number }, game #{ $game }. A host does not play.
tables-add-other = { $nick } already sits at another table: Table { $number }, game #{ $game }.
tables-miniapp = Table { $number } · game #{ $game }
tables-no_such = There is no Table { $number } in this chat. Open: { $numbers }.
tables-number_usage = After /{ $command } only a table's number may follow, e.g. /{ $command } 2.
tables-status =
    <b>Table { $number }</b>
    { $status }
