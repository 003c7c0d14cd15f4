ALTER TABLE schools DROP COLUMN reach_pixel;
