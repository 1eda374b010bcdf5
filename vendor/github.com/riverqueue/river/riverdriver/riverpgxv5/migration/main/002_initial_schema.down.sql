DROP TABLE /* TEMPLATE: schema */river_job;
DROP FUNCTION /* TEMPLATE: schema */river_job_notify;
DROP TYPE /* TEMPLATE: schema */river_job_state;

DROP TABLE /* TEMPLATE: schema */river_leader;