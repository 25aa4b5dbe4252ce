"""``invoke validate``: check a built site before it is published.

Not a Pelican plugin: it reads the output folder (and the settings that built it,
to know which outputs are turned on and where they are) and reports every problem.
"""

from .report import Report
from .site import validate_site

__all__ = ["Report", "validate_site"]
