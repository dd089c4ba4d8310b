-- Trigram matching for names and numbers in search (a trusted extension since PostgreSQL 13;
-- PGlite loads it from its contrib bundle).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
