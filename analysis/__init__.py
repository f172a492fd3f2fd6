"""Experiments that explain results rather than produce them: a search bot's moves fitted into a policy
file, what a Corruption policy does round by round, where a Construction game's money goes. They run from
a checkout (`python -m analysis.NAME`) and are not part of the installed library."""
