"""The `citegraph` command (`main`). Each module registers its commands on the app in common;
main imports them all."""
