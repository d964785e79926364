"""``python -m yinsh.site [--icons] [DIR]``: build the site (or redraw the icons)."""

import sys

from . import build_site, write_icons

if sys.argv[1:2] == ["--icons"]:
    for path in write_icons(sys.argv[2] if len(sys.argv) > 2 else None):
        print(path)
else:
    print(build_site(*sys.argv[1:2]))
