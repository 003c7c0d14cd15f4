DROP TABLE multipart_uploads;
