# Starts Autobahn|Testsuite's wstest under Python 2.7 from the folder that
# `scripts/bootstrap --autobahn` installs it into (pip --target, so not on sys.path by itself).
# run.sh calls it; AUTOBAHN_SITE names another folder.
import os
import site
import sys

here = os.path.dirname(os.path.abspath(__file__))
site_dir = os.environ.get("AUTOBAHN_SITE") or os.path.join(here, "..", "..", ".build", "tools", "autobahn-py2")
site_dir = os.path.normpath(site_dir)
if not os.path.isdir(os.path.join(site_dir, "autobahntestsuite")):
    sys.stderr.write("wstest.py: no autobahntestsuite in %s (run scripts/bootstrap --autobahn)\n" % site_dir)
    sys.exit(1)
# addsitedir, not PYTHONPATH: it also reads the folder's .pth files, which declare the zope
# namespace package; without them `import zope.interface` fails.
site.addsitedir(site_dir)
sys.argv[0] = "wstest"

from autobahntestsuite.wstest import run  # noqa: E402  (needs the site dir first)

run()
