-- Schema 14 for PostgreSQL: the same change as ../0014_deal_outcomes.sql.

ALTER TABLE games ADD COLUMN deal_outcomes TEXT;
