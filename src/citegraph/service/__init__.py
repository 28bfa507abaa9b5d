"""What every surface shares and the core does not need: access tokens, and (moving here) the
limits, defaults and JSON shapes of the service."""
