# Several tables in one club chat (bot/game/rooms/lobby.py, bot/game/core.py): each table has its
# own host; in a forum each plays in its own topic, otherwise its posts start with its name.

tables-label = <b>Стол { $number }</b>
tables-topic = Стол { $number }
tables-another = ➕ Ещё стол
tables-opened = Открыт стол { $number }: игра №{ $game }. Ведёте его вы.
tables-which = В этом чате открыты столы { $numbers }. Укажите номер стола: /status { $example }. Команды стола даёт его ведущий.
tables-host-seated = Вы играете за столом { $number } (игра №{ $game }), поэтому вести другой стол не можете.
tables-join-other = Вы уже играете за столом { $number } (игра №{ $game }).
tables-join-hosting = Вы ведёте стол { $number } (игра №{ $game }), а ведущий сам не играет.
tables-add-other = { $nick } уже играет за столом { $number } (игра №{ $game }).
tables-miniapp = Стол { $number } · игра №{ $game }
tables-no_such = В этом чате нет стола { $number }. Открыты: { $numbers }.
tables-number_usage = После /{ $command } можно указать только номер стола, например /{ $command } 2.
tables-status =
    <b>Стол { $number }</b>
    { $status }
