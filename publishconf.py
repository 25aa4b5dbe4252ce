"""Pelican settings for publishing: the development settings plus the real address."""

import os
import sys

sys.path.append(os.curdir)
from pelicanconf import *  # noqa: E402,F403

SITEURL = os.environ.get("DALIL_SITEURL", "https://dalil.example")
RELATIVE_URLS = False
DELETE_OUTPUT_DIRECTORY = False
