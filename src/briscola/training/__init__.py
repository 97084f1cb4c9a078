"""Training the learned evaluator's networks (``briscola train``): a run's rounds and
checkpoints (:mod:`.run`) and its report (:mod:`.report`)."""
