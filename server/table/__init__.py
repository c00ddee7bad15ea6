"""The table: one per server, its seats and tokens, its game, one lock, and every command kind.

Every change goes through :class:`Table` (:mod:`.service`): phone commands, bot moves, the
buttons (:mod:`.buttons`). A command is admitted (:mod:`.envelope`, :mod:`.kinds`,
:mod:`.commands`), turned into a record and applied to the live state (the lobby's kinds in
:mod:`.lobby`, the game's in :mod:`.play`; :mod:`.state`), stored with the commands that came
meanwhile (:mod:`.groupcommit`) and only then acknowledged. What each reader is sent is decided
in :mod:`.messages`, from the views of :mod:`.views`; who is connected, in :mod:`.connections`.
"""

from .bots import BotRunner
from .connections import Identity, Outgoing
from .service import Publisher, Table

__all__ = ["BotRunner", "Identity", "Outgoing", "Publisher", "Table"]
