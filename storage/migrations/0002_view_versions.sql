-- Each role's view version after the action. A client's `seq` is its own role's view version:
-- it moves only when what that role may see changed, so a seat cannot count the other seat's
-- hidden decisions (RULES 13.1.4, 13.3). Stored with the action so that a restart resumes
-- every role at the same version without recomputing views; NULL on actions stored before
-- this migration, for which the server recomputes the versions by replay.
ALTER TABLE actions ADD COLUMN v_scotland INTEGER CHECK (v_scotland IS NULL OR v_scotland >= 0);
ALTER TABLE actions ADD COLUMN v_england INTEGER CHECK (v_england IS NULL OR v_england >= 0);
ALTER TABLE actions ADD COLUMN v_observer INTEGER CHECK (v_observer IS NULL OR v_observer >= 0);
