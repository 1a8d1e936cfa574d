"""Correspondence clocks' pure rules: time controls (timecontrol.py), vacations
(vacation.py), the daily digest's schedule (digest.py). The sweeper and the turn clock
are services (services/clocks.py, services/turnclock.py); their storage store/*/clocks.py."""
