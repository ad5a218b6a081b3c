"""What a job decodes together and how long it will take: the batch plan,
the planner's calibration and estimate, the schedule a calibration chose, and the groups a
run decoded together (kept for replication)."""
