"""What only the Pi by the table needs: systemd's readiness and watchdog, the end of the night,
a store on a file system lost at power-off, the captive-portal answers and the Pi's addresses."""
