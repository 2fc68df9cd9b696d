# Роли сети (bot/services/permissions.py): кто что может, docs/bot.md «Роли».
perm-denied-host = Вести игру здесь могут только ведущие и администраторы клуба (и администраторы чата, если клуб это не отключил).
perm-denied-manage_club = Управлять клубом могут только его администраторы и администраторы сети.
perm-denied-hand_over_gift = Выдать подарок или отменить заявку на него могут только администраторы клуба, где его забирают, и администраторы сети.
perm-denied-void_game = Аннулировать игру могут только администраторы клуба и администраторы сети.
perm-denied-approve_clubs = Одобрять, отклонять и приостанавливать клубы могут только администраторы сети.
perm-denied-grant_network_admin = Назначать и снимать администраторов сети могут только её владельцы.
perm-denied-grant_club_admin = Назначать и снимать администраторов клуба могут только администраторы сети.
perm-denied-grant_host = Назначать ведущих клуба могут только его администраторы и администраторы сети.
perm-denied-network_settings = Менять настройки сети могут только её администраторы.
perm-denied-move_points = Это могут только администраторы сети: команда меняет баллы игроков.

# Жизнь клуба (bot/services/club_life.py): ожидает, одобрен, отклонён, приостановлен.
clubs-notice = 🆕 Новая группа хочет стать клубом сети: <b>{ $title }</b> (id <code>{ $chat }</code>); кто добавил бота: { $by }; участников: { $members }. Пока сеть её не одобрит, игры там товарищеские (без баллов).
clubs-button-approve = ✅ Одобрить
clubs-button-refuse = ❌ Отклонить
clubs-decided-approved = ✅ Клуб <b>{ $title }</b> (<code>{ $chat }</code>) одобрен. Кто решил: { $by }.
clubs-decided-refused = ❌ Клуб <b>{ $title }</b> (<code>{ $chat }</code>) отклонён. Кто решил: { $by }.
clubs-decided-suspended = ⏸ Клуб <b>{ $title }</b> (<code>{ $chat }</code>) приостановлен. Кто решил: { $by }.
clubs-decided-pending = ⏳ Клуб <b>{ $title }</b> (<code>{ $chat }</code>) ждёт решения.
clubs-already = Ничего не изменилось — <b>{ $title }</b>: { $status } ({ $by }, { $at }).
clubs-status-pending = ждёт решения
clubs-status-approved = одобрен
clubs-status-refused = отклонён
clubs-status-suspended = приостановлен
clubs-chat-approved = ✅ Сеть одобрила этот клуб: игры здесь теперь приносят баллы. Часовой пояс: { $zone }.
clubs-chat-refused = Сеть отклонила этот клуб: игры здесь товарищеские, баллы не начисляются.
clubs-chat-suspended = ⏸ Сеть приостановила этот клуб: пока его снова не одобрят, игры здесь товарищеские, баллы не начисляются.
clubs-chat-pending = ⏳ Клуб ждёт одобрения сети: до тех пор игры здесь товарищеские.
clubs-approved_next = Одобрено. Теперь назовите клуб: отправьте <code>/club set { $chat } ГОРОД; НАЗВАНИЕ; ЧАСОВОЙ ПОЯС; ПЕРВЫЙ АДМИНИСТРАТОР</code> (часовой пояс — имя IANA, например Europe/Moscow, или - для пояса сети { $zone }; администратор — ник игрока или его Telegram id).
clubs-usage = Как писать: <code>/club approve ID_ЧАТА</code>, <code>/club refuse ID_ЧАТА</code>, <code>/club suspend ID_ЧАТА</code>, <code>/club set ID_ЧАТА ГОРОД; НАЗВАНИЕ; ЧАСОВОЙ ПОЯС; ПЕРВЫЙ АДМИНИСТРАТОР</code>. Список: /clubs
clubs-set_usage = Как писать: <code>/club set { $chat } ГОРОД; НАЗВАНИЕ; ЧАСОВОЙ ПОЯС; ПЕРВЫЙ АДМИНИСТРАТОР</code> (вместо пояса можно написать <code>-</code>: тогда пояс сети; администратора можно не указывать).
clubs-too_long = Город и название клуба — не длиннее { $most ->
        [one] { $most } символа
       *[other] { $most } символов
    }.
clubs-bad_zone = «{ $zone }» — не часовой пояс: укажите имя IANA, например Europe/Moscow или Asia/Vladivostok.
clubs-unknown = Клуба с id { $chat } нет: см. /clubs.
clubs-no_player = Игрока «{ $who }» в боте нет: укажите ник зарегистрированного игрока или его Telegram id.
clubs-set_done = <b>{ $name }</b>, { $city }; часовой пояс { $zone }; администратор клуба: { $admin }.
clubs-nobody = пока никого
clubs-admin_notice = Теперь вы администратор клуба <b>{ $title }</b>: его настройки, ведущие и вечера — ваши (/settings в чате клуба).
clubs-list-empty = Клубов пока нет.
clubs-list-head = <b>{ $status }</b>:
clubs-list-line = • { $title } — <code>{ $chat }</code>

commands-clubs = Клубы: ожидающие, одобренные, отклонённые
commands-club = Одобрить, отклонить, приостановить или назвать клуб

# Диалог и команды команды сети (/staff, bot/handlers/settings.py; bot/services/staff.py).
staff-head = <b>Команда сети</b>
staff-you_owner = 👑 Вы владелец сети (ADMIN_IDS): этих прав не лишают.
staff-network_admins = <b>Администраторы сети</b> ({ $count }):
staff-line = • { $name } (id { $id })
staff-hint_admin = Назначить: <code>/staff admin add НИК</code>; снять: ✖ ниже или <code>/staff admin remove НИК</code>.
staff-remove = ✖ { $name }
staff-clubs = <b>Клубы</b> ({ $count }): администраторы и ведущие клуба.
staff-club_button = 🏠 { $name } ({ $id })
staff-club_head = <b>{ $name }</b> ({ $id }): { $status }
staff-club_admins = Администраторы клуба ({ $count }):
staff-hosts = Ведущие ({ $count }):
staff-chat_admins_on = 🎙 Администраторы чата ведут игры: да.
staff-chat_admins_off = 🎙 Администраторы чата ведут игры: нет (только ведущие из списка и администраторы клуба).
staff-hint_club_admin = Назначить администратора клуба: <code>/staff clubadmin { $id } add НИК</code>.
staff-hint_host = Назначить ведущего: <code>/staff host { $id } add НИК</code> (или <code>/staff host add НИК</code> в чате клуба).
staff-remove_admin = ✖ администратор: { $name }
staff-remove_host = ✖ ведущий: { $name }
staff-chat_admins_toggle = 🎙 Администраторы чата ведут: да/нет
staff-role-network_admin = администратор сети
staff-role-club_admin = администратор клуба «{ $club }»
staff-role-host = ведущий клуба «{ $club }»
staff-told-granted = ✅ Теперь вы { $role } (кто назначил: { $by }). Ваши команды — в /help.
staff-told-revoked = Вы больше не { $role } (кто снял: { $by }).
staff-done-granted = ✅ { $name } теперь { $role }; сообщение отправлено.
staff-done-revoked = { $name } больше не { $role }; сообщение отправлено.
staff-same-granted = { $name } уже { $role }: ничего не изменилось.
staff-same-revoked = { $name } и так не { $role }: ничего не изменилось.
staff-usage = Использование в личном чате: <code>/staff</code> (диалог), <code>/staff admin add|remove НИК</code>, <code>/staff clubadmin ID_ЧАТА add|remove НИК</code>, <code>/staff host ID_ЧАТА add|remove НИК</code>, <code>/staff chatadmins ID_ЧАТА on|off</code>; в чате клуба: <code>/staff host add|remove НИК</code>, <code>/staff chatadmins on|off</code>.
staff-denied = Вам некого назначать и снимать в команде сети.
staff-no_club = Клуба с ID чата { $id } нет.
staff-offline = { $nick } — запись без аккаунта Telegram: в команду сети входят только аккаунты Telegram.
staff-owner = { $name } — владелец сети (ADMIN_IDS): владельцев здесь не назначают и не снимают.
commands-staff = Команда сети: администраторы и ведущие
