"""The table's buttons and lights (gpiozero): an adapter that reads the table's public view only.

``longhall.hardware.adapter.start_hardware`` is what ``longhall serve`` calls; the pin map is
``hardware/pins.toml`` unless ``--gpio-config`` names another. See docs/pi-setup.md.
"""
