# The seasons (standing/seasons.py, views/seasons.py): /season, the season's page, the picture
# at a season's end, and the network's own seasons' dates (/network season).
season-quarter = { $quarter }-й квартал { $year }
season-head = 🗓 <b>Сезон: { $name }</b> ({ $dates })
season-mine = Вы в этом сезоне: рейтинг <b>{ NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) }</b> ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
}), { $points ->
    [one] { $points } балл
    [few] { $points } балла
   *[many] { $points } баллов
}.
season-mine-none = В этом сезоне у вас пока нет засчитанных игр.
season-scope-network = Сеть клубов
season-scope-club = { $club }
season-board-rating = <b>{ $scope }</b> — рейтинг сезона
season-board-points = <b>{ $scope }</b> — баллы сезона
season-row-rating = { $rank }. { $nick } — { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
})
season-row-points = { $rank }. { $nick } — { $points }
season-empty-rating = Пока ни у кого нет { $games ->
        [one] { $games } игры
       *[other] { $games } игр
    } в этом сезоне: таблица появится после них.
season-empty-points = В этом сезоне пока не было засчитанных игр.
season-fame-head = 🏆 <b>Зал славы — сезон «{ $name }»</b> (первые { $places ->
        [one] { $places } место
        [few] { $places } места
       *[many] { $places } мест
    })
season-fame-none = 🏆 Зал славы заполнится, когда закончится первый сезон с играми.
season-link = Сезоны и Зал славы: { $url }
season-post-caption = 🏁 Сезон «{ $name }» закончен. Вот таблица сезона клуба «{ $club }»; Зал славы — /season
season-picture-title = { $club } — сезон «{ $name }» ({ $dates })
season-picture-rating = Рейтинг сезона
season-picture-points = Баллы сезона
season-picture-none = Пока никого
network-season-head = <b>Сезоны</b>: по кварталам, кроме сезонов, назначенных сетью:
network-season-line = { $dates } { $name }
network-season-none = Своих сезонов сеть не назначала.
network-season-usage = <code>/network season НАЧАЛО КОНЕЦ [НАЗВАНИЕ]</code> — назначить сезон со своими датами (дни как 2026-06-01 или 01.06.2026), например <code>/network season 2026-06-01 2026-08-31 Летний кубок</code>; его дни выпадают из кварталов. <code>/network season delete НАЧАЛО</code> — отменить сезон, который ещё не начался.
network-season-set = 🗓 Сезон назначен: { $dates } { $name }.
network-season-refused-past = Сезон может начаться не раньше { $earliest }: сыгранные игры остаются в своём сезоне.
network-season-refused-order = Сезон не может закончиться раньше, чем начнётся.
network-season-refused-long = Сезон длится не больше года.
network-season-refused-name = Название сезона — не длиннее { $most ->
        [one] { $most } символа
       *[other] { $most } символов
    }.
network-season-refused-overlap = Этот сезон пересекается с уже назначенным.
network-season-deleted =
    🗑 Сезон отменён: { $dates } { $name }
    Его дни снова идут по кварталам.
network-season-delete-unknown = Ни один сезон сети не начинается { $start }: список сезонов — <code>/network season</code>.
network-season-delete-started =
    Этот сезон не отменить: { $dates } { $name }
    Отменить можно только сезон, который начинается не раньше { $earliest }: в более раннем где-то уже могли закончиться игры, а сыгранные игры остаются в своём сезоне.
web-season-head = Сезон: { $name }
web-season-title = Сезоны
web-season-current = Текущий сезон
web-season-fame = Зал славы
web-season-fame-none = Зал славы заполнится, когда закончится первый сезон с играми.
web-season-rating = Рейтинг сезона
web-season-points = Баллы сезона
web-season-network = Сеть клубов
web-season-empty = Пока никого.
web-season-about = Сезон — это квартал, если сеть не назначила свои даты. Игра засчитывается в сезон того дня, когда она закончилась (по времени её клуба). У каждого сезона свой рейтинг — только по его играм (все начинают с 0; в таблице — с 10 игр) — и таблица баллов, набранных в нём. Сезон не меняет баланс.
club-settings-season_on = 🏁 Когда сезон заканчивается, чат клуба получает картинку с таблицей сезона.
club-settings-season_off = 🏁 Картинки с таблицей сезона в чат клуба не приходят.
club-settings-season_btn = 🏁 Картинка сезона в чате: вкл/выкл
