DROP TABLE attempts;
