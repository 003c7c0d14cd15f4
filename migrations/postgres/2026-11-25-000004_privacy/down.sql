DROP TABLE erased_receipts;
