# A player's standing: the skill rating (standing/rating.py), apart from points.

standing-rating = Рейтинг мастерства: <b>{ NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) }</b> ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
}, побед { $wins })
standing-side = { $side }: { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
}, побед { $wins })
standing-unrated = Рейтинг мастерства: появится после первой завершённой игры.
standing-provisional-note = Рейтинг предварительный, пока не сыграно { $games ->
        [one] { $games } игры
       *[other] { $games } игр
    }.
standing-top-club = <b>{ $club }</b> — рейтинг мастерства
standing-top-network = <b>Сеть клубов</b> — рейтинг мастерства
standing-top-row = { $rank }. { $nick } — { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
})
standing-top-empty = Пока ни у кого нет { $games ->
        [one] { $games } завершённой игры
       *[other] { $games } завершённых игр
    }: рейтинг появится после них.
standing-top-usage = <code>/top</code> — по баллам, <code>/top rating</code> — по рейтингу мастерства, <code>/top role Доктор</code> — лучшие игроки этой карты.
standing-how = Как считается рейтинг: { $url }
web-standing-title = Рейтинг мастерства
web-standing-none = Рейтинга пока нет: он появится после первой завершённой игры.
web-standing-overall = Во всех играх
web-standing-provisional = предварительный
web-standing-value = { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) }
web-standing-games = Игр
web-standing-wins = Побед
web-standing-side = Команда
web-standing-how = Как считается рейтинг
web-standing-board = Сеть клубов — рейтинг мастерства
web-standing-about-1 = Рейтинг мастерства показывает, как хорошо вы играете, отдельно от баллов. Баллы приходят за каждую игру, в которой вы сидели за столом; рейтинг меняют только победы и поражения — и то, насколько они были неожиданными.
web-standing-about-2 = Каждая завершённая игра — это две команды: мирные жители и Мафия. По рейтингам игроков до игры оцениваются шансы каждой команды; после игры победители поднимаются, проигравшие опускаются — сильнее, если победа была неожиданной, и слабее, если ожидаемой. При ничьей более сильная команда немного теряет в рейтинге.
web-standing-about-3 = Мафии за столом меньше, чем мирных, поэтому рейтинг дополняет Мафию до числа мирных игроками среднего для этого стола уровня: за равным столом у команд равные шансы, и никто не выигрывает и не теряет из-за выпавшей карты.
web-standing-about-4 = Показанное число — осторожная оценка: ваш настоящий уровень почти наверняка не ниже (оценка минус три её погрешности). Новый игрок начинает с 0; каждая игра уточняет оценку, и число растёт, пока вы играете так же хорошо. Пока не сыграно { $games ->
        [one] { $games } игры
       *[other] { $games } игр
    }, рейтинг предварительный и в таблицу не попадает.
web-standing-about-5 = Кроме общего рейтинга у каждого игрока есть рейтинг за мирных и за Мафию — каждый по играм за эту команду.
web-standing-about-6 = Считаются только завершённые игры и только в момент их окончания: пока игра идёт, ничего не меняется, а аннулированная игра больше не засчитывается. Баллы не влияют на рейтинг, рейтинг не влияет на баллы; нарушения и выживание в него не входят — только результат.
web-standing-about-7 = Почему это честно: это опубликованный метод (OpenSkill, модель Плакетта — Люса), одинаковый для всех; он считается по протоколам игр, которые показывает и проверяет страница каждой игры, в том порядке, в каком игры закончились. Если пересчитать все рейтинги с нуля, получатся ровно те же числа.

# A player's roles and rivals (views/standing.py): only counted games, each card beside how
# often it wins for everyone.
standing-roles-none = Засчитанных игр пока нет: карты, соперники и ночные убийства появятся после первой.
standing-roles-cards = <b>По картам</b> (засчитанные игры)
standing-roles-sides = <b>По командам</b>
standing-roles-line = { $name }: { $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
}, побед { $wins } ({ $rate }); у всех — { $everyone } из { $everyone_games ->
    [one] { $everyone_games } игры
   *[other] { $everyone_games } игр
}
standing-roles-few = , пока мало игр
standing-roles-note = «У всех» — как часто карта побеждает у всех, кому она выпадала: так видно, где выигрывает сама карта, а где — ваше мастерство. В <code>/top role</code> попадают игроки, у которых с картой не меньше { $games ->
        [one] { $games } игры
       *[other] { $games } игр
    }.
standing-roles-kill = { $role } — { $count }
standing-rivals-title = <b>С кем вы играете чаще всего</b>
standing-rivals-line = { $nick } — в одной команде: { $together } (побед { $won_together }), против: { $against } (ваших побед { $won_against })
standing-rivals-kills = ; убийства ночью: этот игрок вас — { $killed_you }, вы его — { $you_killed }
standing-kills-by = <b>Кто убивал вас ночью</b>: { $kills }
standing-kills-mine = <b>Кого убили ваши ночные выстрелы</b>: { $kills }
standing-top-role = <b>{ $card }</b> — лучшие по проценту побед (от { $games ->
        [one] { $games } засчитанной игры
       *[other] { $games } засчитанных игр
    } с картой)
standing-top-role_row = { $rank }. { $nick } — { $rate } ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
}, побед { $wins })
standing-top-role_empty = Пока ни у кого нет { $games ->
        [one] { $games } засчитанной игры
       *[other] { $games } засчитанных игр
    } с картой «{ $card }».
standing-top-role_everyone = У всех карта «{ $card }» побеждает в { $rate } игр (всего { $games }).
standing-top-role_unknown = Не знаю такой карты: { $name }. Карты: { $cards }.
standing-top-role_usage = Напишите карту: <code>/top role Доктор</code>, <code>/top role Комиссар</code>. Карты: { $cards }.
web-roles-title = Карты и соперники
web-roles-graph = Рейтинг мастерства после каждой засчитанной игры
web-roles-bars = Доля побед по картам: у игрока и у всех
web-roles-card = Карта
web-roles-rate = Доля побед
web-roles-everyone = У всех
web-roles-of = { $rate } из { $games }
web-roles-note = «У всех» — как часто карта побеждает у всех, кому она выпадала: так видно, где выигрывает сама карта, а где — мастерство игрока. Пока у игрока с картой меньше { $games ->
        [one] { $games } игры
       *[other] { $games } игр
    }, доля мало о чём говорит: такие строки — серым цветом.
web-roles-rivals = С кем чаще всего за одним столом
web-roles-player = Соперник
web-roles-together = В одной команде
web-roles-won_together = Побед вместе
web-roles-against = Против
web-roles-won_against = Побед над соперником
web-roles-killed_you = Убийства игрока ночью
web-roles-you_killed = Убийства соперника ночью
standing-chart-mine = Доля побед игрока
standing-chart-everyone = У всех с этой картой
standing-chart-bar = { $card } ({ $games })
web-roles-killed_by = <b>Кто убивал игрока ночью</b>: { $kills }
web-roles-killed = <b>Кого убили ночные выстрелы игрока</b>: { $kills }
