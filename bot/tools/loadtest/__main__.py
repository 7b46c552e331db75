"""``python -m bot.tools.loadtest`` (the workers' command; people type
``python -m bot.loadtest``)."""

import sys

from bot.tools.loadtest.run import main

sys.exit(main())
