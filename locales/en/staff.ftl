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
