"""Longhall installs as ``longhall.*`` from the design's own folders: ``server/`` is
``longhall.server``, ``hardware/`` is ``longhall.hardware``, and the pages (``phone_ui/``,
``table_display/``) travel as package data. Every package below those folders is found here, so a
new one (a game's) needs no line of its own. The rest of the project's metadata is pyproject.toml's.
"""

from setuptools import find_packages, setup

FOLDERS = {"server": "longhall.server", "hardware": "longhall.hardware"}
PAGES = {"phone_ui": "longhall.phone_ui", "table_display": "longhall.table_display"}

packages = [*PAGES.values()]
for folder, name in FOLDERS.items():
    packages += [name, *(f"{name}.{sub}" for sub in find_packages(folder))]

setup(
    package_dir={name: folder for folder, name in {**FOLDERS, **PAGES}.items()},
    packages=packages,
)
