# The network's roles (bot/services/permissions.py): who may do what, docs/bot.md "Roles".
perm-denied-host = Only this club's hosts and admins (and, unless the club turned it off, the chat's administrators) can run a game here.
perm-denied-manage_club = Only this club's admins and the network's admins can manage the club.
perm-denied-hand_over_gift = Only the admins of the club where the gift is collected, and the network's admins, can hand it over or cancel the request.
perm-denied-void_game = Only the club's admins and the network's admins can void a game.
perm-denied-approve_clubs = Only the network's admins can approve, refuse or suspend clubs.
perm-denied-grant_network_admin = Only the network's owners can name or remove network admins.
perm-denied-grant_club_admin = Only the network's admins can name or remove a club's admins.
perm-denied-grant_host = Only this club's admins and the network's admins can name its hosts.
perm-denied-network_settings = Only the network's admins can change the network's settings.
perm-denied-move_points = Only the network's admins can do this: it moves points.

# A club's life (bot/services/club_life.py): pending, approved, refused, suspended.
clubs-notice = 🆕 A new group asks to be a club: <b>{ $title }</b> (id <code>{ $chat }</code>), added by { $by }, { $members } members. Its games are friendly (no points) until the network approves it.
clubs-button-approve = ✅ Approve
clubs-button-refuse = ❌ Refuse
clubs-decided-approved = ✅ <b>{ $title }</b> (<code>{ $chat }</code>) approved by { $by }.
clubs-decided-refused = ❌ <b>{ $title }</b> (<code>{ $chat }</code>) refused by { $by }.
clubs-decided-suspended = ⏸ <b>{ $title }</b> (<code>{ $chat }</code>) suspended by { $by }.
clubs-decided-pending = ⏳ <b>{ $title }</b> (<code>{ $chat }</code>) is pending.
clubs-already = Nothing changed: <b>{ $title }</b> is { $status } (by { $by }, { $at }).
clubs-status-pending = pending
clubs-status-approved = approved
clubs-status-refused = refused
clubs-status-suspended = suspended
clubs-chat-approved = ✅ The network approved this club: its games now count for points. Time zone: { $zone }.
clubs-chat-refused = The network refused this club: games here are friendly, no points are counted.
clubs-chat-suspended = ⏸ The network suspended this club: games here are friendly, no points are counted, until it is approved again.
clubs-chat-pending = ⏳ This club waits for the network's approval: games here are friendly until then.
clubs-approved_next = Approved. Now name it: send <code>/club set { $chat } CITY; NAME; TIME ZONE; FIRST ADMIN</code> (the time zone an IANA name such as Europe/Moscow, or - for the network's { $zone }; the first admin a player's nickname or Telegram id).
clubs-usage = Usage: <code>/club approve CHAT_ID</code>, <code>/club refuse CHAT_ID</code>, <code>/club suspend CHAT_ID</code>, <code>/club set CHAT_ID CITY; NAME; TIME ZONE; FIRST ADMIN</code>. The list: /clubs
clubs-set_usage = Usage: <code>/club set { $chat } CITY; NAME; TIME ZONE; FIRST ADMIN</code> (the time zone may be - for the network's; the first admin may be left out).
clubs-too_long = A club's city or name is at most { $most ->
        [one] { $most } character
       *[other] { $most } characters
    }.
clubs-bad_zone = “{ $zone }” is not a time zone: give an IANA name such as Europe/Moscow or Asia/Vladivostok.
clubs-unknown = No club has the id { $chat }: see /clubs.
clubs-no_player = No player “{ $who }” with Telegram: give a registered player's nickname or Telegram id.
clubs-set_done = <b>{ $name }</b>, { $city }; time zone { $zone }; club admin: { $admin }.
clubs-nobody = nobody yet
clubs-admin_notice = You are now an admin of the club <b>{ $title }</b>: its settings, hosts and evenings are yours (/settings in its chat).
clubs-list-empty = No clubs yet.
clubs-list-head = <b>{ $status }</b>:
clubs-list-line = • { $title } — <code>{ $chat }</code>

commands-clubs = The clubs: pending, approved, refused
commands-club = Approve, refuse, suspend or name a club

# The staff dialog and commands (/staff, bot/handlers/settings.py; bot/services/staff.py).
staff-head = <b>The network's staff</b>
staff-you_owner = 👑 You are an owner of the network (ADMIN_IDS): never revoked.
staff-network_admins = <b>Network admins</b> ({ $count }):
staff-line = • { $name } (id { $id })
staff-hint_admin = Name one: <code>/staff admin add NICK</code>; remove: ✖ below or <code>/staff admin remove NICK</code>.
staff-remove = ✖ { $name }
staff-clubs = <b>Clubs</b> ({ $count }): a club's admins and hosts.
staff-club_button = 🏠 { $name } ({ $id })
staff-club_head = <b>{ $name }</b> ({ $id }): { $status }
staff-club_admins = Club admins ({ $count }):
staff-hosts = Hosts ({ $count }):
staff-chat_admins_on = 🎙 The chat's administrators host: on.
staff-chat_admins_off = 🎙 The chat's administrators host: off (only the listed hosts and the club's admins).
staff-hint_club_admin = Name a club admin: <code>/staff clubadmin { $id } add NICK</code>.
staff-hint_host = Name a host: <code>/staff host { $id } add NICK</code> (or <code>/staff host add NICK</code> in the club chat).
staff-remove_admin = ✖ admin { $name }
staff-remove_host = ✖ host { $name }
staff-chat_admins_toggle = 🎙 The chat's administrators host: on/off
staff-role-network_admin = a network admin
staff-role-club_admin = an admin of the club “{ $club }”
staff-role-host = a host of the club “{ $club }”
staff-told-granted = ✅ You are now { $role } (named by { $by }). /help lists your commands.
staff-told-revoked = You are no longer { $role } (removed by { $by }).
staff-done-granted = ✅ { $name } is now { $role }; they were told.
staff-done-revoked = { $name } is no longer { $role }; they were told.
staff-same-granted = { $name } is { $role } already: nothing changed.
staff-same-revoked = { $name } is not { $role }: nothing changed.
staff-usage = Usage, in a private chat: <code>/staff</code> (the dialog), <code>/staff admin add|remove NICK</code>, <code>/staff clubadmin CHAT_ID add|remove NICK</code>, <code>/staff host CHAT_ID add|remove NICK</code>, <code>/staff chatadmins CHAT_ID on|off</code>; in the club chat: <code>/staff host add|remove NICK</code>, <code>/staff chatadmins on|off</code>.
staff-denied = You manage nobody on the network's staff.
staff-no_club = There is no club with the chat id { $id }.
staff-offline = { $nick } has no Telegram account: only a Telegram account can be on the staff.
staff-owner = { $name } is an owner of the network (ADMIN_IDS): owners are never named nor removed here.
commands-staff = The network's staff: admins and hosts
