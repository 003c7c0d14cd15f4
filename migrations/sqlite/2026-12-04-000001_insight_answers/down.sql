DROP TABLE insight_answers;
