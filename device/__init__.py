"""The appliance: the ``senet`` command, GPIO, electronic sticks, the service loop and the match store."""
