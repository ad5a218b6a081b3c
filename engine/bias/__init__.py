"""Social-bias probes (paper 002): probe sets, option order, reply normalisation, bias scores."""
