"""Expert iteration (Anthony et al. 2017; AlphaZero's policy update): a policy-guided search is a
stronger player than the policy that guides it, so the policy is fitted to the search's move
distributions and the fitted policy guides the next search. `python -m training.expert_iteration
--game corruption` runs it from the config's `ei:` section; `positions.py` records the positions,
`distill.py` fits the student, `__main__.py` is the loop and its run folder.
"""
