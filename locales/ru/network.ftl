# Настройки сети (/network, bot/handlers/settings.py): пределы штрафов.
network-head = <b>Настройки сети</b>
network-fine_cap = 🟨 Штраф за одно нарушение: не больше { $cap ->
        [one] { $cap } балла
       *[other] { $cap } баллов
    } (штраф клуба выше предела снижается до него).
network-game_fine_cap = 🧮 Штрафы игрока за одну игру: не больше { $cap ->
        [one] { $cap } балла
       *[other] { $cap } баллов
    }.
network-hint = ⌨️ Предел можно задать числом: <code>/network fine_cap N</code> или <code>/network game_fine_cap N</code>.
network-btn-fine_cap = 🟨 { $sign }{ $increment }
network-btn-game_fine_cap = 🧮 { $sign }{ $increment }
network-saved = Сохранено.
network-usage = Использование: <code>/network</code> (настройки с кнопками), <code>/network fine_cap N</code> (предел штрафа за одно нарушение), <code>/network game_fine_cap N</code> (предел штрафов игрока за одну игру); N — целое число баллов.
network-range = Предел — от 0 до { $top ->
        [one] { $top } балла
       *[other] { $top } баллов
    }.
network-set-fine_cap = 🟨 Штраф за одно нарушение теперь не больше { $cap ->
        [one] { $cap } балла
       *[other] { $cap } баллов
    } (было { $old }).
network-set-game_fine_cap = 🧮 Штрафы игрока за одну игру теперь не больше { $cap ->
        [one] { $cap } балла
       *[other] { $cap } баллов
    } (было { $old }).
network-lowered = Штраф снижен до { $cap } в { $count ->
        [one] { $count } клубе
       *[other] { $count } клубах
    }: { $clubs }.
network-club_lowered = 🟨 Сеть теперь списывает за одно нарушение не больше { $cap ->
        [one] { $cap } балла
       *[other] { $cap } баллов
    }: штраф клуба снижен с { $before } до { $cap }.
commands-network = Настройки сети: пределы штрафов
