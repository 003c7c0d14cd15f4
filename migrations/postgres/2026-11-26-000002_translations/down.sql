DROP TABLE notification_translations;
