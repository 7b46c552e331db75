"""``python -m bot.i18n``: for translators (issue 33).

- ``python -m bot.i18n template`` rewrites ``bot/i18n/locales/chaupal.pot``,
  every message id in the code (``Msg``, ``Plural``, ``t``, ``tn``, ``N_``,
  and the rules summaries), which a new language's ``.po`` starts from.
- ``python -m bot.i18n report <code>`` says what ``<code>.po`` lacks: missing
  and fuzzy messages, translations whose ``{placeholders}`` differ from the
  English, and obsolete ones; it exits 1 when anything is missing or wrong.
"""

from __future__ import annotations

import sys

from bot.i18n.extract import TEMPLATE, report, write_template


def main(argv: list[str]) -> int:
    if argv[:1] == ["template"]:
        count = write_template()
        print(f"{TEMPLATE}: {count} messages")
        return 0
    if len(argv) == 2 and argv[0] == "report":
        text, ok = report(argv[1])
        print(text)
        return 0 if ok else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
