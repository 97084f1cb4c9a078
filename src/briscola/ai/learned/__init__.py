"""The learned evaluator: small networks a game, a value and a policy, trained by
self-play (``briscola train``) and evaluated in compiled kernels. See docs/bots.md."""
