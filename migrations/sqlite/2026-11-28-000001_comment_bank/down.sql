DROP TABLE phrase_counts;
DROP TABLE bank_comments;
