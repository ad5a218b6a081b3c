"""Statistics on judged scores: agreement between judges (Pearson, Spearman, Lin's CCC, MAE,
CBS), clustered bootstrap intervals, paired tests with Holm correction, group summaries."""
