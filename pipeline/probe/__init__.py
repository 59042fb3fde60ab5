"""Re-computing printed cells: frozen DNA-model embeddings plus a logistic-regression probe.

Needs the ``probe`` extra (numpy, scikit-learn); ``hf:`` models also need the ``models`` extra.
"""
