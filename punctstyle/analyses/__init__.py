"""The paper's analyses: consistency, the recognition grid, temporal."""
