"""Study reports: a self-contained HTML file with figures (PNG and SVG), CSV/LaTeX tables
and run cards."""
