DROP TABLE address_refusals;
DROP TABLE deliveries;
